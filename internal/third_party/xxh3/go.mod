module github.com/zeebo/xxh3

go 1.22

require golang.org/x/sys v0.47.0
