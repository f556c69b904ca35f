package cli

import (
	"fmt"
	"sort"
	"strings"

	"github.com/dembug/dembug/engine/schema"
	"github.com/dembug/dembug/internal/mapfile"
	"github.com/dembug/dembug/session"
)

// missingAliases says which --as names no field of the file carries (a
// typo, or an alias meant for another build), each with the names of its
// kind the file does carry that decoder choice does not know, and the
// closest spelling among all it carries. Empty when every name is there.
func missingAliases(a schema.Aliases, s *schema.Schema) []string {
	if s == nil || a.Empty() {
		return nil
	}
	var out []string
	check := func(kind schema.Kind, m map[string]string) {
		names := make([]string, 0, len(m))
		for n := range m {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			if s.Writes(kind, n) {
				continue
			}
			msg := fmt.Sprintf("--as %s=%s: no field of this file has the %s %s", n, m[n], kind, n)
			if near := nearestName(s, kind, n); near != "" {
				msg += fmt.Sprintf(" (did you mean %s?)", near)
			}
			var unknown []string
			for _, u := range s.Unknowns() {
				if u.Kind == kind {
					unknown = append(unknown, u.Name)
				}
			}
			switch {
			case len(unknown) == 0:
				msg += fmt.Sprintf("; every %s of this file has a decoder rule", kind)
			case len(unknown) > 12:
				msg += fmt.Sprintf("; its %ss without a decoder rule: %s and %d more", kind, strings.Join(unknown[:12], ", "), len(unknown)-12)
			default:
				msg += fmt.Sprintf("; its %ss without a decoder rule: %s", kind, strings.Join(unknown, ", "))
			}
			out = append(out, msg)
		}
	}
	check(schema.KindType, a.Types)
	check(schema.KindEncoder, a.Encoders)
	return out
}

// nearestName is the name of kind written in the schema closest to n
// (case aside, at most a third of its letters apart), or "".
func nearestName(s *schema.Schema, kind schema.Kind, n string) string {
	seen := map[string]bool{}
	best, bestD := "", len(n)/3+1
	for _, f := range s.AllFields() {
		for _, w := range f.WrittenNames() {
			if w.Kind != kind || w.Name == "" || seen[w.Name] {
				continue
			}
			seen[w.Name] = true
			if d := editDistance(strings.ToLower(w.Name), strings.ToLower(n)); d < bestD || (d == bestD && best != "" && w.Name < best) {
				best, bestD = w.Name, d
			}
		}
	}
	return best
}

// editDistance is the Levenshtein distance of a and b, in bytes.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			c := prev[j-1]
			if a[i-1] != b[j-1] {
				c++
			}
			cur[j] = min(c, prev[j]+1, cur[j-1]+1)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// checkAliasNames is an error naming the --as names the file's schema
// lacks, nil when it has them all (or has no schema to tell). The names
// are the schema's as written, so it reads the schema without the
// aliases: realiasing builds every field, which the check needs only to
// say what a missing name might have been.
func checkAliasNames(data []byte, a schema.Aliases) error {
	if a.Empty() {
		return nil
	}
	r, err := loadSchema(data, schema.Aliases{})
	if err != nil || r == nil || r.Schema() == nil {
		return nil // the command reports an unreadable file itself
	}
	if miss := missingAliases(a, r.Schema()); len(miss) > 0 {
		return fmt.Errorf("%s", strings.Join(miss, "\n"))
	}
	return nil
}

// checkMute is an error for a --mute value that is neither an anomaly
// rule nor a field of the file's schema (a typo would otherwise mute
// nothing, silently). It lists the rules.
func checkMute(mute []string, path string) error {
	var fields []string
	for _, m := range mute {
		if _, ok := session.RuleNamed(m); !ok {
			fields = append(fields, m)
		}
	}
	if len(fields) == 0 {
		return nil
	}
	var names map[string]bool
	if f, err := mapfile.Open(path); err == nil {
		if r, err := loadSchema(f.Data, schema.Aliases{}); err == nil && r.Schema() != nil {
			names = map[string]bool{}
			for _, sf := range r.Schema().AllFields() {
				names[sf.Name] = true
			}
		}
		f.Close()
	}
	if names == nil {
		return nil // no schema to tell by: the command reports the file
	}
	var rules []string
	for _, r := range session.Rules {
		rules = append(rules, r.ID())
	}
	for _, m := range fields {
		if muteNamesField(m, names) {
			continue
		}
		return fmt.Errorf("--mute %q: not an anomaly rule, and no field of %s is named so; rules: %s", m, path, strings.Join(rules, ", "))
	}
	return nil
}

// muteNamesField says whether m names a field of the schema: the field's
// name, a path through it (a.b), or an element of it (m_items.0003).
func muteNamesField(m string, names map[string]bool) bool {
	for _, part := range strings.Split(m, ".") {
		if names[part] {
			return true
		}
	}
	return false
}

// readWithAliases reads the replay at path and parses the --as flags,
// refusing a name no field of the file carries: what every command that
// decodes one file does first.
func readWithAliases(path string, df decodeFlags) ([]byte, schema.Aliases, error) {
	aliases, err := df.aliases()
	if err != nil {
		return nil, aliases, err
	}
	data, err := readFile(path)
	if err != nil {
		return nil, aliases, err
	}
	if err := checkAliasNames(data, aliases); err != nil {
		return nil, aliases, fmt.Errorf("%s: %w", path, err)
	}
	return data, aliases, nil
}
