package schema

import "fmt"

// checkNesting is the nesting check over serializers whose field lists are
// read (pending.checkNesting, which a parse runs, works on the index
// edges before any list is read): it refuses serializers that nest more
// than maxNesting levels (a cycle nests without end) or that expand to
// more than MaxExpandedFields fields. Each serializer is measured once, so
// shared nested serializers cost nothing extra. The tests hold the parse's
// check to it and build serializers by hand for it.
func checkNesting(sers []*Serializer) error {
	type size struct{ height, fields int }
	done := make(map[*Serializer]size, len(sers))
	visiting := make(map[*Serializer]bool)
	var visit func(s *Serializer, depth int) (size, error)
	visit = func(s *Serializer, depth int) (size, error) {
		if z, ok := done[s]; ok {
			return z, nil
		}
		if visiting[s] || depth > maxNesting {
			return size{}, fmt.Errorf("serializer %s nests more than %d levels (cycle?)", s.Name, maxNesting)
		}
		visiting[s] = true
		var z size
		for _, f := range s.Fields {
			z.fields++
			if f.Serializer == nil {
				continue
			}
			k, err := visit(f.Serializer, depth+1)
			if err != nil {
				return size{}, err
			}
			z.height = max(z.height, k.height+1)
			z.fields += k.fields
			if z.fields > MaxExpandedFields {
				return size{}, fmt.Errorf("serializer %s expands to more than %d fields", s.Name, MaxExpandedFields)
			}
		}
		if z.height > maxNesting {
			return size{}, fmt.Errorf("serializer %s nests more than %d levels (cycle?)", s.Name, maxNesting)
		}
		delete(visiting, s)
		done[s] = z
		return z, nil
	}
	for _, ser := range sers {
		if _, err := visit(ser, 0); err != nil {
			return err
		}
	}
	return nil
}
