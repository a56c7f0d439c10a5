package fetch_test

import (
	"fmt"

	"github.com/urlget/urlget/fetch"
	"github.com/urlget/urlget/schemes"
)

// A registry is configured with option values, by the names the schemes
// declare (urlget's flags have the same names): here the news server of
// news: URLs and the newest articles a group lists.
func ExampleNewRegistry() {
	reg, err := fetch.NewRegistry(fetch.Config{Options: schemes.Options{
		"nntp-server":     "news.example:1119",
		schemes.OptionMax: 5,
	}})
	if err != nil {
		fmt.Println(err)
		return
	}
	c := &fetch.Client{Registry: reg}
	plan, _ := c.Explain("news:comp.infosystems.gopher")
	fmt.Println(plan[0])
	fmt.Println(plan[len(plan)-2])
	_, err = fetch.NewRegistry(fetch.Config{Options: schemes.Options{"telnet-idle": 0}}) // a time.Duration
	fmt.Println(err)
	// Output:
	// connect news.example:1119
	// OVER low-high over the newest 5 articles (if OVER fails: XOVER, then HEAD per article)
	// option telnet-idle: int given, want time.Duration
}
