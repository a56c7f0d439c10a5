package fetch

import (
	"slices"
	"testing"
)

func TestSpansAddMergesAndGaps(t *testing.T) {
	for _, tt := range []struct {
		name string
		add  [][2]int64
		want spans
		gaps spans // of [0, 100)
	}{
		{"none", nil, nil, spans{{0, 100}}},
		{"apart", [][2]int64{{10, 20}, {40, 50}}, spans{{10, 20}, {40, 50}}, spans{{0, 10}, {20, 40}, {50, 100}}},
		{"out of order", [][2]int64{{40, 50}, {10, 20}}, spans{{10, 20}, {40, 50}}, spans{{0, 10}, {20, 40}, {50, 100}}},
		{"touching", [][2]int64{{0, 10}, {10, 20}}, spans{{0, 20}}, spans{{20, 100}}},
		{"bridging", [][2]int64{{0, 10}, {20, 30}, {5, 25}}, spans{{0, 30}}, spans{{30, 100}}},
		{"inside", [][2]int64{{0, 50}, {10, 20}}, spans{{0, 50}}, spans{{50, 100}}},
		{"empty", [][2]int64{{5, 5}}, nil, spans{{0, 100}}},
		{"whole", [][2]int64{{50, 100}, {0, 50}}, spans{{0, 100}}, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var s spans
			for _, a := range tt.add {
				s.add(a[0], a[1])
			}
			if !slices.Equal(s, tt.want) {
				t.Errorf("spans %v, want %v", s, tt.want)
			}
			if g := s.gaps(100); !slices.Equal(g, tt.gaps) {
				t.Errorf("gaps %v, want %v", g, tt.gaps)
			}
			if err := s.check(100); err != nil {
				t.Errorf("check: %v", err)
			}
		})
	}
	if (spans{{0, 10}, {10, 20}}).check(100) == nil || (spans{{0, 200}}).check(100) == nil {
		t.Error("check accepts touching spans or one past the end")
	}
}
