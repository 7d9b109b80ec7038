package cache

import "syscall"

// mapPopulate faults a mapped entry in with the mmap call: the checksum
// reads every page at once anyway, and one populate costs less than a
// fault per page run.
const mapPopulate = syscall.MAP_POPULATE
