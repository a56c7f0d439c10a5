package file

import "github.com/urlget/urlget/schemes"

// Declaration declares file, whose URLs name no port: a file: URL of
// another host is retrieved by ftp (libwww's rule) unless no-file-ftp.
func Declaration() schemes.Declaration {
	return schemes.Declaration{
		Names: []schemes.Name{{Name: "file"}},
		Options: []schemes.Option{
			{Name: "no-file-ftp", Kind: schemes.Bool, Schemes: []string{"file"},
				Help: "refuse file: URLs on other hosts instead of using ftp"},
		},
		New: func(v schemes.Values) ([]schemes.Scheme, error) {
			return Schemes(&Handler{NoFTP: v.Bool("no-file-ftp"), words: v.Words()}), nil
		},
	}
}
