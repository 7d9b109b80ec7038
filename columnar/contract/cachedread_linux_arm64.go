package contract

// sysPreadv2 is preadv2's system call number on linux/arm64.
const sysPreadv2 = 286
