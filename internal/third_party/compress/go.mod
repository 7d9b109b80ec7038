module github.com/klauspost/compress

go 1.25

require golang.org/x/sys v0.47.0
