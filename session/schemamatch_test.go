package session

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/dembug/dembug/engine/container"
	"github.com/dembug/dembug/engine/replay"
	"github.com/dembug/dembug/engine/schema"
	"github.com/dembug/dembug/internal/testreplays"
)

// After the index pass, SchemaMatch tells a field the file's classes hold
// (every holding class counted) from one that only serializers no entity
// of the file reaches declare, and from a name nothing declares; the
// expectations come from a complete copy of the schema.
func TestSchemaMatchTellsHeldFromDeclared(t *testing.T) {
	for _, g := range testreplays.Games {
		for _, path := range testreplays.Files(t, g)[:1] {
			t.Run(g+"/"+filepath.Base(path), func(t *testing.T) {
				data, err := os.ReadFile(path)
				if err != nil {
					t.Fatal(err)
				}
				ix := &Index{Path: "x.dem", Size: len(data)}
				in := newIndexer(data, schema.Aliases{})
				for !ix.Done {
					ix.Append(in.Step(time.Hour))
				}
				full := ix.Classes
				// What the file's classes reach, walked on a schema completed
				// apart (the indexer's stays as decoding left it).
				r, err := replay.Open(data)
				if err != nil {
					t.Fatal(err)
				}
				if err := r.Run(func(*container.Command) bool { return r.Schema != nil }); err != nil || r.Schema == nil {
					t.Fatal(err)
				}
				whole := r.Schema.Complete()
				reached := map[string]bool{} // field names the file's classes hold
				var walk func(ser *schema.Serializer, seen map[*schema.Serializer]bool)
				walk = func(ser *schema.Serializer, seen map[*schema.Serializer]bool) {
					if ser == nil || seen[ser] {
						return
					}
					seen[ser] = true
					for _, f := range ser.Fields {
						reached[f.Name] = true
						walk(f.Serializer, seen)
						for _, p := range f.Polymorphic {
							walk(p, seen)
						}
					}
				}
				for _, c := range full {
					walk(whole.Serializer(c), map[*schema.Serializer]bool{})
				}
				// A held name, and the longest unheld one that no held name
				// contains (the query matches names containing it).
				var held, unheld string
				var unreached []string
				for _, f := range whole.AllFields() {
					if reached[f.Name] {
						if held == "" {
							held = f.Name
						}
					} else {
						unreached = append(unreached, f.Name)
					}
				}
				sort.Slice(unreached, func(i, j int) bool { return len(unreached[i]) > len(unreached[j]) })
				for _, u := range unreached[:min(len(unreached), 50)] {
					inside := false
					for n := range reached {
						if strings.Contains(strings.ToLower(n), strings.ToLower(u)) {
							inside = true
							break
						}
					}
					if !inside {
						unheld = u
						break
					}
				}
				if held == "" || unheld == "" {
					t.Fatalf("no field held (%q) or only declared (%q)", held, unheld)
				}
				if d, n := in.SchemaMatch(NewMatcher(held), full); !strings.Contains(strings.ToLower(d.Field), strings.ToLower(held)) || n == 0 {
					t.Errorf("%s: %+v held by %d classes", held, d, n)
				}
				if d, n := in.SchemaMatch(NewMatcher(unheld), full); !strings.EqualFold(d.Field, unheld) || n != 0 || d.Serializers == 0 {
					t.Errorf("%s: %+v held by %d classes, want declared and held by none", unheld, d, n)
				}
				if d, n := in.SchemaMatch(NewMatcher("m_NoSuchFieldAnywhere"), full); d.Field != "" || n != 0 {
					t.Errorf("a name nothing declares: %+v, %d", d, n)
				}
			})
		}
	}
}
