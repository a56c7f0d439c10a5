package main

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// sizeSuffixes are the multipliers curl accepts after a size or rate
// (--limit-rate, --max-filesize): powers of 1024, either case.
var sizeSuffixes = map[byte]int64{'k': 1 << 10, 'm': 1 << 20, 'g': 1 << 30}

// parseSize reads a byte count in curl's syntax: digits, optionally
// followed by k, m or g (KiB, MiB, GiB). flag names the option in the
// error, which the command reports as a usage error (exit 2).
func parseSize(flag, s string) (int64, error) {
	digits, mult := s, int64(1)
	if s != "" {
		if m, ok := sizeSuffixes[strings.ToLower(s[len(s)-1:])[0]]; ok {
			digits, mult = s[:len(s)-1], m
		}
	}
	n, err := strconv.ParseInt(digits, 10, 64)
	if err != nil || n < 0 || digits[0] == '+' {
		return 0, fmt.Errorf("--%s %q: want a number of bytes, optionally with k, m or g (powers of 1024)", flag, s)
	}
	if n > math.MaxInt64/mult {
		return 0, fmt.Errorf("--%s %q: too large", flag, s)
	}
	return n * mult, nil
}

// formatBytes is n for people, in powers of 1024: "512 B", "3.1 MiB".
func formatBytes(n int64) string {
	if n < 1<<10 {
		return strconv.FormatInt(n, 10) + " B"
	}
	f, unit := float64(n)/(1<<10), 0
	for f >= 1<<10 && unit < len(binaryUnits)-1 {
		f /= 1 << 10
		unit++
	}
	return strconv.FormatFloat(f, 'f', 1, 64) + " " + binaryUnits[unit]
}

var binaryUnits = []string{"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"}

// formatClock is d rounded to the second as m:ss, or h:mm:ss from an hour.
func formatClock(d time.Duration) string {
	s := int64(d.Round(time.Second) / time.Second)
	if s >= 3600 {
		return fmt.Sprintf("%d:%02d:%02d", s/3600, s/60%60, s%60)
	}
	return fmt.Sprintf("%d:%02d", s/60, s%60)
}

// formatSeconds is d as the user gives it to --max-time: "2s", "0.5s",
// "1.61s" — to the millisecond, and divided rather than taken from
// Duration.Seconds, whose sum of whole and fractional parts shows 1.61s as
// 1.6099999999999999.
func formatSeconds(d time.Duration) string {
	return strconv.FormatFloat(float64(d.Round(time.Millisecond))/float64(time.Second), 'f', -1, 64) + "s"
}
