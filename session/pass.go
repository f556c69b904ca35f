package session

import (
	"fmt"
	"time"
)

// runStep is the one loop of the package's background passes (the index
// pass, the grading pass, search and filter): each decodes the file a
// command at a time, in steps of about a time budget, so that the screen
// refreshes between them. next decodes one command and reports whether
// the pass is over; the clock is read every `every` commands (reading it
// costs more than a small command). A panic in next ends the step and
// comes back as an error naming it, for the pass to end with: bad input
// never takes the program down.
func runStep(budget time.Duration, every int, next func() (over bool)) (panicked error) {
	defer func() {
		if p := recover(); p != nil {
			panicked = fmt.Errorf("internal error while decoding: %v", p)
		}
	}()
	start := time.Now()
	for n := 1; ; n++ {
		if next() {
			return nil
		}
		if n%every == 0 && time.Since(start) > budget {
			return nil
		}
	}
}
