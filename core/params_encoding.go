package core

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"reflect"
	"strconv"
	"strings"
)

// Names returns the sweepable parameter names in declaration order.
func Names() []string {
	t := reflect.TypeFor[Params]()
	names := make([]string, 0, t.NumField())
	for i := range t.NumField() {
		names = append(names, t.Field(i).Tag.Get("param"))
	}
	return names
}

func paramField(p *Params, name string) (reflect.Value, bool) {
	v := reflect.ValueOf(p).Elem()
	t := v.Type()
	for i := range t.NumField() {
		if t.Field(i).Tag.Get("param") == name {
			return v.Field(i), true
		}
	}
	return reflect.Value{}, false
}

// Get returns the canonical text of the named parameter.
func (p Params) Get(name string) (string, error) {
	f, ok := paramField(&p, name)
	if !ok {
		return "", fmt.Errorf("unknown parameter %q (valid: %s)", name, strings.Join(Names(), ", "))
	}
	return formatParam(f), nil
}

// Set parses value into the named parameter. Lists are comma-separated;
// blank items are skipped. It does not validate ranges (see Validate).
func (p *Params) Set(name, value string) error {
	f, ok := paramField(p, name)
	if !ok {
		return fmt.Errorf("unknown parameter %q (valid: %s)", name, strings.Join(Names(), ", "))
	}
	value = strings.TrimSpace(value)
	bad := func(err error) error { return fmt.Errorf("parameter %s: %q: %w", name, value, err) }
	switch f.Kind() {
	case reflect.String:
		f.SetString(value)
	case reflect.Int:
		n, err := strconv.Atoi(value)
		if err != nil {
			return bad(fmt.Errorf("not an integer"))
		}
		f.SetInt(int64(n))
	case reflect.Float64:
		x, err := strconv.ParseFloat(value, 64)
		if err != nil {
			return bad(fmt.Errorf("not a number"))
		}
		f.SetFloat(x)
	case reflect.Bool:
		b, err := strconv.ParseBool(value)
		if err != nil {
			return bad(fmt.Errorf("not a boolean (true/false)"))
		}
		f.SetBool(b)
	case reflect.Slice:
		items := splitList(value)
		s := reflect.MakeSlice(f.Type(), 0, len(items))
		for _, it := range items {
			switch f.Type().Elem().Kind() {
			case reflect.Int:
				n, err := strconv.Atoi(it)
				if err != nil {
					return bad(fmt.Errorf("item %q is not an integer", it))
				}
				s = reflect.Append(s, reflect.ValueOf(n))
			case reflect.Float64:
				x, err := strconv.ParseFloat(it, 64)
				if err != nil {
					return bad(fmt.Errorf("item %q is not a number", it))
				}
				s = reflect.Append(s, reflect.ValueOf(x))
			}
		}
		f.Set(s)
	default:
		return bad(fmt.Errorf("unsupported parameter kind %s", f.Kind()))
	}
	return nil
}

// splitList splits a comma list, trimming items and skipping blank ones
// (as the reference's list flags do).
func splitList(s string) []string {
	var out []string
	for it := range strings.SplitSeq(s, ",") {
		if it = strings.TrimSpace(it); it != "" {
			out = append(out, it)
		}
	}
	return out
}

func formatParam(f reflect.Value) string {
	switch f.Kind() {
	case reflect.String:
		return f.String()
	case reflect.Int:
		return strconv.FormatInt(f.Int(), 10)
	case reflect.Float64:
		return strconv.FormatFloat(f.Float(), 'g', -1, 64)
	case reflect.Bool:
		return strconv.FormatBool(f.Bool())
	case reflect.Slice:
		parts := make([]string, f.Len())
		for i := range parts {
			parts[i] = formatParam(f.Index(i))
		}
		return strings.Join(parts, ",")
	}
	return ""
}

// Canonical returns the stable text encoding of p: one "name=value" line
// per parameter in declaration order, values in their canonical text.
// Equal parameter sets encode to equal bytes; the sweep hashes it.
func (p Params) Canonical() []byte {
	var b strings.Builder
	for _, name := range Names() {
		v, _ := p.Get(name)
		b.WriteString(name)
		b.WriteByte('=')
		b.WriteString(v)
		b.WriteByte('\n')
	}
	return []byte(b.String())
}

// ID returns a short stable identifier of p: the first 16 hex digits of
// the SHA-256 of its canonical encoding.
func (p Params) ID() string {
	sum := sha256.Sum256(p.Canonical())
	return hex.EncodeToString(sum[:8])
}
