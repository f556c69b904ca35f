package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/dembug/dembug/engine/game"
	"github.com/dembug/dembug/engine/schema"
)

// buildsText names the two builds a schema diff compares, and says so when
// they are one build (two files of one build should have one schema: a
// difference then is the files', not a patch's).
func buildsText(old, new int32) string {
	if old == new && old != 0 {
		return fmt.Sprintf("both files are build %d (one build: no patch between them)", old)
	}
	return fmt.Sprintf("%s → %s", buildText(old), buildText(new))
}

// buildText names a file's build: "build N", or "build unknown" where no
// file header gives one (a broadcast capture has none; its 0 is no build).
func buildText(b int32) string {
	if b == 0 {
		return "build unknown"
	}
	return fmt.Sprintf("build %d", b)
}

// SchemaChange is one line of schema --diff --json.
type SchemaChange struct {
	Kind       string   `json:"kind"`
	Serializer string   `json:"serializer"`
	Field      string   `json:"field,omitempty"`
	Details    []string `json:"details,omitempty"`
}

// SchemaDiffSummary is the last line of schema --diff --json.
type SchemaDiffSummary struct {
	Summary    bool           `json:"summary"`
	OldBuild   int32          `json:"old_build"`
	NewBuild   int32          `json:"new_build"`
	SameBuild  bool           `json:"same_build"`
	Changes    int            `json:"changes"`
	Kinds      map[string]int `json:"kinds"`
	NewUnknown []UnknownName  `json:"new_unknown,omitempty"`
}

// runSchemaDiffJSON is runSchemaDiff as JSON lines: one object per change,
// then a summary object ("summary": true).
func runSchemaDiffJSON(w io.Writer, oldPath, newPath, filter string, a schema.Aliases) error {
	schemas, builds, err := loadPair(oldPath, newPath, a)
	if err != nil {
		return err
	}
	enc := json.NewEncoder(w)
	sum := SchemaDiffSummary{Summary: true, OldBuild: builds[0], NewBuild: builds[1], SameBuild: builds[0] == builds[1], Kinds: map[string]int{}}
	for _, c := range schema.Diff(schemas[0], schemas[1]) {
		if filter != "" && !strings.Contains(strings.ToLower(c.Serializer), strings.ToLower(filter)) {
			continue
		}
		if err := enc.Encode(SchemaChange{Kind: string(c.Kind), Serializer: c.Serializer, Field: c.Field, Details: c.Details}); err != nil {
			return err
		}
		sum.Changes++
		sum.Kinds[string(c.Kind)]++
	}
	for n := range schemas[1].NewUnknowns(schemas[0]) {
		sum.NewUnknown = append(sum.NewUnknown, UnknownName{Kind: string(n.Kind), Name: n.Name, Fields: len(schemas[1].Carrying(n.Kind, n.Name))})
	}
	sort.Slice(sum.NewUnknown, func(i, j int) bool { return sum.NewUnknown[i].Name < sum.NewUnknown[j].Name })
	if err := enc.Encode(sum); err != nil {
		return err
	}
	if sum.Changes > 0 {
		return &ExitError{Code: 1} // as the text form
	}
	return nil
}

// printSince is check's --since section: the names without a decoder rule
// that the earlier build's schema lacks, with how many fields carry each.
func printSince(w io.Writer, path, since string, names []UnknownName) {
	if len(names) == 0 {
		fmt.Fprintf(w, "%s: since %s: no new type or encoder without a decoder rule\n", path, since)
		return
	}
	var parts []string
	for _, n := range names {
		parts = append(parts, fmt.Sprintf("%s %s (%d field%s)", n.Kind, n.Name, n.Fields, map[bool]string{true: "s"}[n.Fields != 1]))
	}
	fmt.Fprintf(w, "%s: since %s, new and without a decoder rule: %s\n", path, since, strings.Join(parts, ", "))
}

// printDiff prints a schema diff grouped by what changed: each renamed
// type first, one line however many fields it touched (with what it does
// to decoding and the --as that undoes it), then the changes no rename
// covers, one line each; a field added to or removed from many classes
// alike (a base class's) is one line too.
func printDiff(w io.Writer, changes []schema.Change, g game.Game) {
	groups, rest := schema.GroupChanges(changes, g)
	folded := len(changes) - len(rest)
	for _, gr := range groups {
		fmt.Fprintln(w, gr)
	}
	if len(groups) > 0 {
		renames := "the type rename"
		if len(groups) > 1 {
			renames = fmt.Sprintf("the %d type renames", len(groups))
		}
		fmt.Fprintf(w, "(%d field changes are %s above)\n", folded, renames)
	}
	repeats, rest := schema.GroupRepeated(rest)
	if len(repeats) > 0 && len(groups) > 0 {
		fmt.Fprintln(w)
	}
	for _, r := range repeats {
		fmt.Fprintln(w, r)
	}
	if (len(groups) > 0 || len(repeats) > 0) && len(rest) > 0 {
		fmt.Fprintln(w)
	}
	for _, c := range rest {
		fmt.Fprintln(w, c)
	}
}

// loadPair loads the schemas of the two files a diff compares, and their
// builds.
func loadPair(oldPath, newPath string, a schema.Aliases) (schemas [2]*schema.Schema, builds [2]int32, err error) {
	for i, p := range []string{oldPath, newPath} {
		data, err := readFile(p)
		if err != nil {
			return schemas, builds, err
		}
		r, err := loadSchema(data, a)
		if err != nil {
			return schemas, builds, fmt.Errorf("%s: %w", p, err)
		}
		schemas[i], builds[i] = r.Schema(), r.Build()
	}
	return schemas, builds, nil
}
