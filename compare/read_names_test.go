package compare

import "testing"

func TestNormalName(t *testing.T) {
	for in, want := range map[string]string{
		"m_vecX":                       "m_vecX",
		"m_iCaptainPlayerIDs.0001":     "m_iCaptainPlayerIDs.0001",
		"m_iCaptainPlayerIDs.1":        "m_iCaptainPlayerIDs.0001",
		"m_iCaptainPlayerIDs[1]":       "m_iCaptainPlayerIDs.0001",
		"m_vec.12.m_y":                 "m_vec.0012.m_y",
		"m_vec[12].m_y":                "m_vec.0012.m_y",
		"m_a[3][4]":                    "m_a.0003.0004",
		"m_big.12345":                  "m_big.12345",
		"CBodyComponent.m_cellX":       "CBodyComponent.m_cellX",
		"m_flPoseParameter.3":          "m_flPoseParameter.0003",
		"m_x.1a":                       "m_x.1a",
		"m_odd[":                       "m_odd[",
		"m_odd[x]":                     "m_odd[x]",
		"m_nested.0002.m_list.7.m_val": "m_nested.0002.m_list.0007.m_val",
	} {
		if got := normalName(in); got != want {
			t.Errorf("%q: %q, want %q", in, got, want)
		}
	}
}
