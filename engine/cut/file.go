package cut

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// WriteFile writes a cut to path through a temporary file in the same
// folder, renamed into place: a failed write leaves no partial file.
func WriteFile(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return fmt.Errorf("cannot write %s: %v", path, pathErr(err))
	}
	// CreateTemp makes the file private; a cut is a fixture to share.
	werr := tmp.Chmod(0o644)
	if werr == nil {
		_, werr = tmp.Write(data)
	}
	if cerr := tmp.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Rename(tmp.Name(), path)
	}
	if werr != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("cannot write %s: %v", path, pathErr(werr))
	}
	return nil
}

// pathErr is the reason of a file error, without the path it repeats.
func pathErr(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		return le.Err
	}
	return err
}
