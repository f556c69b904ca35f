module github.com/dembug/dembug/interop

go 1.26.0

require (
	github.com/dembug/dembug v0.0.0
	github.com/dotabuff/manta v1.5.0
	github.com/markus-wa/demoinfocs-golang/v5 v5.1.0
	google.golang.org/protobuf v1.36.12
)

require (
	github.com/davecgh/go-spew v1.1.1 // indirect
	github.com/golang/geo v0.0.0-20230421003525-6adc56603217 // indirect
	github.com/golang/protobuf v1.5.4 // indirect
	github.com/golang/snappy v1.0.0 // indirect
	github.com/markus-wa/go-unassert v0.1.3 // indirect
	github.com/markus-wa/gobitread v0.2.5-0.20241202000432-3c3e0bc797c6 // indirect
	github.com/markus-wa/godispatch v1.4.1 // indirect
	github.com/markus-wa/quickhull-go/v2 v2.2.0 // indirect
	github.com/oklog/ulid/v2 v2.1.0 // indirect
	github.com/pkg/errors v0.9.1 // indirect
	golang.org/x/exp v0.0.0-20230817173708-d852ddb80c63 // indirect
)

replace github.com/dembug/dembug => ../
