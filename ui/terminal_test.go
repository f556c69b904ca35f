package ui

import (
	"os"
	"strings"
	"testing"
)

// Without a terminal the debugger says so and what to use instead, in its
// own words, rather than failing in Bubble Tea's on /dev/tty.
func TestNeedTerminal(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	if err := needTerminal(r, w); err == nil || !strings.Contains(err.Error(), "standard output is not one; to print a decode, use dembug check") {
		t.Errorf("output to a pipe: %v", err)
	}
	null, err := os.OpenFile(os.DevNull, os.O_RDWR, 0)
	if err != nil {
		t.Skip(err)
	}
	defer null.Close()
	err = needTerminal(r, null) // keys from a pipe: the controlling terminal's, if any
	if tty, ttyErr := os.Open("/dev/tty"); ttyErr == nil {
		tty.Close()
		if err != nil {
			t.Errorf("keys from a pipe with a controlling terminal: %v", err)
		}
	} else if err == nil || !strings.Contains(err.Error(), "reads keys from a terminal, and there is none") {
		t.Errorf("keys from a pipe, no terminal: %v", err)
	}
	if err := needTerminal(null, null); err != nil {
		t.Errorf("character devices both: %v", err)
	}
}
