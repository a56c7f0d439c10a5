package promtext

import (
	"slices"
	"strings"
	"sync"
)

// Gauge is a value that goes up and down.
type Gauge struct{ v atomicFloat }

// NewGauge registers a gauge without labels.
func (r *Registry) NewGauge(name, help string) *Gauge {
	g := &Gauge{}
	r.add(family{name: name, help: help, typ: "gauge", write: func(w *writer, name string) {
		w.sample(name, nil, nil, "", "", g.v.load())
	}})
	return g
}

// Inc adds one.
func (g *Gauge) Inc() { g.v.add(1) }

// Dec takes one away.
func (g *Gauge) Dec() { g.v.add(-1) }

// NewGaugeFunc registers a gauge whose value f gives at each scrape.
func (r *Registry) NewGaugeFunc(name, help string, f func() float64) {
	r.add(family{name: name, help: help, typ: "gauge", write: func(w *writer, name string) {
		w.sample(name, nil, nil, "", "", f())
	}})
}

// NewCounterFunc registers a counter whose value f gives at each scrape:
// a count kept elsewhere, such as the process's CPU time.
func (r *Registry) NewCounterFunc(name, help string, f func() float64) {
	r.add(family{name: name, help: help, typ: "counter", write: func(w *writer, name string) {
		w.sample(name, nil, nil, "", "", f())
	}})
}

// vec holds one value of type T for each combination of label values
// seen, written sorted by those values.
type vec[T any] struct {
	labels []string
	mu     sync.RWMutex
	m      map[string]*entry[T]
}

type entry[T any] struct {
	values []string
	v      T
}

// with returns the value for the label values, made at first use.
func (v *vec[T]) with(values []string) *T {
	if len(values) != len(v.labels) {
		panic("promtext: " + strings.Join(v.labels, ",") + ": wrong number of label values")
	}
	key := strings.Join(values, "\xff")
	v.mu.RLock()
	e := v.m[key]
	v.mu.RUnlock()
	if e != nil {
		return &e.v
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	if e = v.m[key]; e == nil {
		e = &entry[T]{values: slices.Clone(values)}
		v.m[key] = e
	}
	return &e.v
}

// each calls f for every combination seen, in the order of their values.
func (v *vec[T]) each(f func(values []string, t *T)) {
	v.mu.RLock()
	es := make([]*entry[T], 0, len(v.m))
	for _, e := range v.m {
		es = append(es, e)
	}
	v.mu.RUnlock()
	slices.SortFunc(es, func(a, b *entry[T]) int { return slices.Compare(a.values, b.values) })
	for _, e := range es {
		f(e.values, &e.v)
	}
}

// CounterVec is a counter for each combination of its labels' values.
type CounterVec struct{ vec[atomicFloat] }

// NewCounterVec registers a counter with the labels named.
func (r *Registry) NewCounterVec(name, help string, labels ...string) *CounterVec {
	c := &CounterVec{vec[atomicFloat]{labels: labels, m: map[string]*entry[atomicFloat]{}}}
	r.add(family{name: name, help: help, typ: "counter", write: func(w *writer, name string) {
		c.each(func(values []string, v *atomicFloat) { w.sample(name, c.labels, values, "", "", v.load()) })
	}})
	return c
}

// Add adds d (not negative: a counter only grows) to the counter of the
// label values given, in the order of the labels.
func (c *CounterVec) Add(d float64, values ...string) {
	if d < 0 {
		panic("promtext: a counter cannot go down")
	}
	c.with(values).add(d)
}

// Inc adds one to the counter of the label values given.
func (c *CounterVec) Inc(values ...string) { c.Add(1, values...) }

// HistogramVec counts observations in buckets, for each combination of
// its labels' values.
type HistogramVec struct {
	vec[histogram]
	bounds []float64
}

// histogram is one label combination's buckets (not cumulative; the
// exposition sums them), sum and count.
type histogram struct {
	mu     sync.Mutex
	counts []uint64 // one per bound, then +Inf
	sum    float64
}

// NewHistogramVec registers a histogram with the buckets' upper bounds
// (increasing) and the labels named.
func (r *Registry) NewHistogramVec(name, help string, bounds []float64, labels ...string) *HistogramVec {
	if !slices.IsSorted(bounds) {
		panic("promtext: " + name + ": bucket bounds not increasing")
	}
	h := &HistogramVec{vec: vec[histogram]{labels: labels, m: map[string]*entry[histogram]{}}, bounds: slices.Clone(bounds)}
	r.add(family{name: name, help: help, typ: "histogram", write: h.write})
	return h
}

// Observe counts v for the label values given.
func (h *HistogramVec) Observe(v float64, values ...string) {
	e := h.with(values)
	i, _ := slices.BinarySearch(h.bounds, v) // the first bound >= v: "le"
	e.mu.Lock()
	if e.counts == nil {
		e.counts = make([]uint64, len(h.bounds)+1)
	}
	e.counts[i]++
	e.sum += v
	e.mu.Unlock()
}

// write writes each combination's cumulative buckets, sum and count.
func (h *HistogramVec) write(w *writer, name string) {
	var le []byte
	h.each(func(values []string, e *histogram) {
		e.mu.Lock()
		counts, sum := slices.Clone(e.counts), e.sum
		e.mu.Unlock()
		if counts == nil {
			counts = make([]uint64, len(h.bounds)+1)
		}
		var total uint64
		for i, b := range h.bounds {
			total += counts[i]
			le = appendValue(le[:0], b)
			w.sample(name+"_bucket", h.labels, values, "le", string(le), float64(total))
		}
		total += counts[len(h.bounds)]
		w.sample(name+"_bucket", h.labels, values, "le", "+Inf", float64(total))
		w.sample(name+"_sum", h.labels, values, "", "", sum)
		w.sample(name+"_count", h.labels, values, "", "", float64(total))
	})
}
