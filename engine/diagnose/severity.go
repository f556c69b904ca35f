package diagnose

// Severity grades how strongly a field's anomalies (or the worst of an
// update's, message's or command's fields) point at a misread: strong from
// Threshold up, weak below it.
type Severity uint8

const (
	SevNone   Severity = iota
	SevWeak            // an anomaly below Threshold (a dangling handle, an overlong varint)
	SevStrong          // an anomaly at or above Threshold: likely a misread
)

// Grade is the severity of a field's anomalies. A read by the default
// decoder is no mark on its own: the seed makes it the rule for enums and
// ids (the anomaly itself is still reported).
func Grade(as []Anomaly) Severity {
	s := SevNone
	for _, a := range as {
		if !Counted(a) {
			continue
		}
		if SeverityOf(a) == SevStrong {
			return SevStrong
		}
		s = SevWeak
	}
	return s
}

// FieldAnomalies returns the anomalies of field fi of an update whose
// first field is firstField, or nil.
func (rep *Report) FieldAnomalies(firstField, fi int) []Anomaly {
	i := firstField + fi
	if rep == nil || i < 0 || i >= len(rep.Anomalies) {
		return nil
	}
	return rep.Anomalies[i]
}

// Anomalous counts the fields in [first, first+n) with any anomaly.
func (rep *Report) Anomalous(first, n int) int {
	c := 0
	for i := first; i < first+n && i < len(rep.Anomalies); i++ {
		if len(rep.Anomalies[i]) > 0 {
			c++
		}
	}
	return c
}

// Strength counts the report's anomalies at or above Threshold (the
// message-level one included) and below it.
func (rep *Report) Strength() (strong, weak int) {
	rep.Each(func(a Anomaly) {
		if a.Score >= Threshold {
			strong++
		} else {
			weak++
		}
	})
	return strong, weak
}

// Each calls f for every anomaly of the report, the message-level one
// last.
func (rep *Report) Each(f func(Anomaly)) {
	for _, as := range rep.Anomalies {
		for _, a := range as {
			f(a)
		}
	}
	if rep.End != nil {
		f(*rep.End)
	}
}
