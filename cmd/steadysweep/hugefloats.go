package main

// hugeFloatsMin is the smallest array hugeFloats puts in huge pages: one
// 2 MiB huge page costs about as much to fault in (~170 µs on the
// benchmarks' virtual machines) as ten 4 KiB pages (~16 µs each), so
// from 256 KiB (64 pages) on it is the cheaper; below, the huge page
// would mostly raise the resident size.
const hugeFloatsMin = 256 << 10 / 8
