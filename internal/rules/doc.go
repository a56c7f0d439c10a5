// Package rules holds no code: its tests are the house's architectural
// rules, checked over the module's source with go/ast so that they stay
// true as the code changes — no scheme package imports another, the
// library names no command-line flag, and no package but a scheme's own
// names a scheme. A rule with known exceptions lists them, each file with
// its count, as debt that may shrink and never grow.
package rules
