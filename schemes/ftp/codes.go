package ftp

// Reply codes this package tells apart by name (RFC 959 §4.2.1; SIZE and
// MDTM's 213 is RFC 3659 §3.1 and §4.1).
const (
	codeCommandOK           = 200 // command okay: NOOP's reply
	codeSystemStatus        = 211 // system status: FEAT's answer (RFC 2389 §3.2)
	codeFileStatus          = 213 // file status: SIZE's and MDTM's answer (RFC 3659)
	codeSystemType          = 215 // NAME system type: SYST's answer
	codeFileActionOK        = 250 // requested file action okay, completed: CWD's
	codePathCreated         = 257 // "PATHNAME": PWD's answer
	codeServiceNotAvailable = 421 // closing the control connection: busy, or idle too long
	codeUnknownCommand      = 500 // syntax error, command unrecognized
	codeNotImplemented      = 502 // command not implemented
	codeBadSequence         = 503 // bad sequence of commands
	codeFileUnavailable     = 550 // file unavailable: not found, no access, or not a file
)
