module github.com/dembug/dembug/interop

go 1.26.0

require (
	github.com/dembug/dembug v0.0.0
	github.com/dotabuff/manta v1.5.0
)

require (
	github.com/davecgh/go-spew v1.1.1 // indirect
	github.com/golang/protobuf v1.5.4 // indirect
	github.com/golang/snappy v1.0.0 // indirect
	github.com/stretchr/testify v1.10.0 // indirect
	google.golang.org/protobuf v1.36.12 // indirect
)

replace github.com/dembug/dembug => ../
