// Package mapfile opens a replay for reading without copying it onto the
// heap: on Unix the file is memory-mapped, elsewhere (or when mapping
// fails) it is read whole. A mapped file's pages are the kernel's page
// cache; Release drops the ones this process has touched from its resident
// set (they read back from the cache when touched again), so a pass over a
// 100 MB file does not keep 100 MB resident.
//
// Files:
//
//	mapfile.go     File, Open, ReadFile, Release, Refuse (non-regular files)
//	capture.go     broadcast captures: a folder of fragments read as one file
//	mmap_unix.go   mmap, madvise and munmap on Unix
//	mmap_other.go  the no-mapping fallbacks elsewhere
package mapfile
