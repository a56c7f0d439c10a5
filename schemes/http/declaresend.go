package http

import (
	"fmt"
	"io"

	"github.com/urlget/urlget/schemes"
)

// setSending sets the Handler's Method, Body and KeepPost from the
// options, as curl reads -X, -d and -F: one kind of body (URL-encoded
// fields or a multipart form, never both), and neither body nor method
// with -I, which sends HEAD. The files the values name are read, or
// looked at, now; @- reads stdin.
func (h *Handler) setSending(v schemes.Values, stdin io.Reader) error {
	data, form := v.Sequence(optionData), v.Sequence(optionForm)
	if len(data) > 0 && len(form) > 0 {
		return v.UsageError(optionForm, fmt.Sprintf("%s and %s: a request has one body, URL-encoded fields or a multipart form; give one kind",
			v.Name(data[0].As), v.Name(form[0].As)), nil)
	}
	if v.Bool(schemes.OptionHead) {
		for _, o := range []struct {
			given bool
			name  string
		}{{len(data) > 0, optionData}, {len(form) > 0, optionForm}, {v.Has(optionMethod), optionMethod}} {
			if o.given {
				return v.UsageError(o.name, fmt.Sprintf("%s sends HEAD, without a body and as no other method: not with %s",
					v.Name(schemes.OptionHead), v.Name(o.name)), nil)
			}
		}
	}
	if v.Has(optionMethod) {
		h.Method = v.String(optionMethod)
		if err := checkMethod(h.Method); err != nil {
			return v.UsageError(optionMethod, v.Name(optionMethod), err)
		}
	}
	var err error
	switch {
	case len(data) > 0:
		h.Body, err = dataBody(data, stdin)
		if err != nil {
			return v.UsageError(optionData, v.Name(optionData), err)
		}
	case len(form) > 0:
		fields := make([]FormField, len(form))
		for i, g := range form {
			if fields[i], err = formFieldOf(g.Value, g.As == formString, stdin); err != nil {
				return v.UsageError(optionForm, fmt.Sprintf("%s %s", v.Name(g.As), g.Value), err)
			}
		}
		if h.Body, err = MultipartBody(fields); err != nil {
			return v.UsageError(optionForm, v.Name(optionForm), err)
		}
	}
	for _, status := range []int{301, 302, 303} {
		if v.Bool(keepOption(status)) {
			h.KeepPost = append(h.KeepPost, status)
		}
	}
	return nil
}

// checkSending refuses a method or body when no URL is one the Handler
// would send it to: curl lets -d pass unused with an ftp URL, which only
// hides a mistake.
func checkSending(v schemes.Values, locs []schemes.Locator) error {
	if locs == nil {
		return nil
	}
	var opt string
	for _, o := range []string{optionMethod, optionData, optionForm} {
		if v.Has(o) {
			opt = o
			break
		}
	}
	if opt == "" {
		return nil
	}
	for _, loc := range locs {
		if _, ok := loc.(*URL); ok {
			return nil
		}
	}
	return v.UsageError(opt, fmt.Sprintf("%s makes HTTP requests: give an http or https URL", v.Name(opt)), nil)
}
