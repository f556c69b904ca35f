package session

import (
	"fmt"

	"github.com/dembug/dembug/engine/container"
)

// Place writes a byte offset of data as the user knows it: "byte N" in a
// .dem file, "FILE byte N" in a broadcast capture (engine/container).
func (f *File) Place(off int) string { return placeOf(f.data, off) }

// placeOf is File.Place over data.
func placeOf(data []byte, off int) string {
	if !container.IsCapture(data) {
		return fmt.Sprintf("byte %d (0x%x)", off, off)
	}
	r, err := container.NewReader(data)
	if err != nil {
		return fmt.Sprintf("byte %d", off)
	}
	name, local := r.Place(off)
	return fmt.Sprintf("%s byte %d (0x%x)", name, local, local)
}

// PlainPlace is Place without the hex: "byte N", or "FILE byte N".
func (f *File) PlainPlace(off int) string { return plainPlaceOf(f.data, off) }

// plainPlaceOf is File.PlainPlace over data.
func plainPlaceOf(data []byte, off int) string {
	if !container.IsCapture(data) {
		return fmt.Sprintf("byte %d", off)
	}
	r, err := container.NewReader(data)
	if err != nil {
		return fmt.Sprintf("byte %d", off)
	}
	return container.FormatPlace(r.Segments(), off)
}

// CaptureRows is the wire view of a broadcast command whose body is no
// protobuf message: a capture's DEM_Packet and DEM_SignonPacket carry the
// inner messages bare, and its DEM_SpawnGroups raw spawn-group data. It is
// false for every other command.
func (f *File) CaptureRows(kind container.Kind, msg int, body []byte) ([]WireRow, bool) {
	return captureRows(f.data, kind, msg, body)
}

// captureRows is File.CaptureRows over data.
func captureRows(data []byte, kind container.Kind, msg int, body []byte) ([]WireRow, bool) {
	if msg >= 0 || !container.IsCapture(data) {
		return nil, false
	}
	var what string
	switch kind {
	case container.Packet, container.SignonPacket:
		what = fmt.Sprintf("%d bytes: the inner messages (ubitvar type, varint size, body), bit-packed; a broadcast sends them without a CDemoPacket around them", len(body))
	case container.SpawnGroups:
		what = fmt.Sprintf("%d bytes: spawn-group data, not a protobuf message in a broadcast (dembug does not decode it)", len(body))
	default:
		return nil, false
	}
	return []WireRow{{Name: "body", Type: "raw", Len: len(body), Value: what}}, true
}
