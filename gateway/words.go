package gateway

import "strings"

// The settings of Options that the gateway's pages may tell a person to
// turn on, as Options.Words is asked for them.
const (
	SettingAllowSend = "gateway.AllowSend"
	SettingAllowFile = "gateway.AllowFile"
)

// word is setting in the words of the program that runs the gateway
// (Options.Words), else the Options field's name.
func (s *Server) word(setting string) string {
	if s.opt.Words != nil {
		if w := s.opt.Words(setting); w != "" {
			return w
		}
	}
	return strings.TrimPrefix(setting, "gateway.")
}
