// Copyright 2009 The Go Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package pflag

import "strings"

// steadysweep: kept from upstream's golangflag.go (the rest of which,
// the bridge to package flag, is left out): a short flag group starting
// "test." is go test's and skipped, as upstream does.
func isGotestShorthandFlag(flag string) bool {
	return strings.HasPrefix(flag, "test.")
}
