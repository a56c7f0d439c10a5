package ftp

import (
	"errors"
	"strings"
	"time"

	"github.com/urlget/urlget/schemes"
)

// Commands whose replies do not decide what comes next go together (issue
// 36). RFC 959 §4.1 has the server read commands from the control
// connection and answer each in turn, so the commands a request will send
// anyway — PWD after the login, the CWDs, TYPE, SIZE, MDTM, EPSV — are
// written at once and their replies read in order, each where the command
// would have been sent in its turn: cmd takes the reply of the pipelined
// command it is asked to send, and every reply is checked as it was. A
// fresh session then costs the greeting, USER (PASS), the batch and RETR:
// three or four round trips rather than nine. The batch is planned by the
// very decisions the request takes (see fetchPlan); when a reply changes
// the course (a CWD refused, a TYPE A after SYST), the replies of the
// commands sent after it are read and discarded (discard) — their effects
// on the session noted, never their answers used.
//
// A server that does not take commands that way answers out of step: a
// reply missing, a 500 to a command that only fails so when it arrives
// early, a reply that answers another command. Its session is closed, it
// is sent commands one at a time from then on (Handler.noPipe), and the
// request starts again once, unpipelined: nothing a retrieval sends before
// RETR changes what the server holds.

// errOutOfStep marks an error that a pipelined batch met: the request is
// tried again with commands in their turn.
var errOutOfStep = errors.New("the server answered commands sent together out of step")

// pipeWaitMin bounds from below the wait for a reply to a pipelined
// command: a server answers each as it reads it, and one that has not
// answered for that long (eight round trips) dropped what it read early.
const pipeWaitMin = 3 * time.Second

// pipelines says whether commands go together to c's server: not with
// --no-pipeline, nor to a server that answered a batch out of step.
func (h *Handler) pipelines(c *ctrl) bool {
	if h.NoPipeline {
		return false
	}
	_, refused := h.noPipe.Load(c.peer())
	return !refused
}

// sendBatch writes lines, commands in their turn, in one write; their
// replies are read by cmd as each is asked for. Fewer than two lines, or
// a session with a reply waiting, are left to go one at a time.
func (c *ctrl) sendBatch(lines []string) error {
	if len(lines) < 2 || len(c.pending) > 0 {
		return nil
	}
	if closing, err := c.inStep(); err != nil || closing {
		return err
	}
	var b strings.Builder
	for _, l := range lines {
		c.tr.Sent(l)
		b.WriteString(l + "\r\n")
	}
	if _, err := c.nc.Write([]byte(b.String())); err != nil {
		c.broken = true
		return err
	}
	c.pending = append(c.pending, lines...)
	return nil
}

// takePending reads the reply of line when it was sent in a batch: the
// replies of the batch's commands before it are read and discarded first.
// ok is false when line was not sent ahead (every pending reply has been
// discarded then: line goes in its turn).
func (c *ctrl) takePending(line string) (rp reply, ok bool, err error) {
	for len(c.pending) > 0 {
		head := c.pending[0]
		if head != line {
			if err := c.discard(); err != nil {
				return reply{}, true, err
			}
			continue
		}
		rp, err := c.readPending()
		return rp, true, err
	}
	return reply{}, false, nil
}

// readPending reads the reply of the batch's first command, within the
// wait a server that reads commands in turn needs, and checks that it
// answers that command.
func (c *ctrl) readPending() (reply, error) {
	line := c.pending[0]
	c.pending = c.pending[1:]
	c.nc.SetReadDeadline(time.Now().Add(max(pipeWaitMin, 8*c.rtt)))
	rp, err := c.read()
	c.nc.SetReadDeadline(time.Time{})
	if err != nil {
		if isTimeout(err) {
			return rp, c.outOfStep("no reply to " + verbOf(line) + " sent with others")
		}
		return rp, err
	}
	if !fits(line, rp.Code) {
		return rp, c.outOfStep(c.redact(rp.String()) + " does not answer " + verbOf(line) + " sent with others")
	}
	return rp, nil
}

// discard reads the reply of the batch's first command, which the request
// no longer needs, and notes what the command did: a TYPE in effect, a
// passive port that can serve the next transfer (as one asked for ahead,
// ahead.go), a CWD taken after one that failed (the session is where it
// led).
func (c *ctrl) discard() error {
	line := c.pending[0]
	rp, err := c.readPending()
	if err != nil {
		return err
	}
	switch verb := verbOf(line); {
	case rp.Code == codeServiceNotAvailable:
		c.broken = true
	case verb == "TYPE" && rp.Code/100 == 2:
		c.typ = strings.ToLower(line[len("TYPE "):])[0]
	case verb == "CWD" && rp.Code/100 == 2:
		// The CWDs before it that chdir read left c.at where the
		// server was; an absolute one (the login directory) no
		// longer tells where it is.
		if arg := line[len("CWD "):]; strings.HasPrefix(arg, "/") {
			c.broken = true
		} else {
			c.entered(arg)
		}
	case verb == "EPSV" && rp.Code == codeExtendedPassive:
		if p, ok := parseEPSV(rp.Text()); ok {
			c.aheadPort, c.aheadAt = p, time.Now()
		}
	}
	return nil
}

// settle reads and discards the replies of every pipelined command, so
// that the session can be kept or its next command sent in turn.
func (c *ctrl) settle() error {
	for len(c.pending) > 0 {
		if err := c.discard(); err != nil {
			return err
		}
	}
	return nil
}

// outOfStep closes the session, which can no longer tell which reply
// answers which command, and sends c's server no batch again.
func (c *ctrl) outOfStep(msg string) error {
	c.broken = true
	c.pending = nil
	if c.noPipe != nil {
		c.noPipe.Store(c.peer(), true)
	}
	c.tr.Info(msg + ": the server takes commands one at a time from now on")
	return &schemes.Error{Kind: schemes.KindProtocol, Retryable: true, Msg: msg, Err: errOutOfStep}
}

// verbOf is a command line's command, upper case.
func verbOf(line string) string {
	v, _, _ := strings.Cut(line, " ")
	return strings.ToUpper(v)
}

// batchAnswers are the positive replies each command sent in a batch may
// have (RFC 959 §5.4; SIZE and MDTM RFC 3659, EPSV RFC 2428, PBSZ and PROT
// RFC 4217, FEAT RFC 2389): none has a preliminary or an intermediate reply.
var batchAnswers = map[string][]int{
	"PWD":  {codePathCreated},
	"CWD":  {codeFileActionOK, codeCommandOK},
	"TYPE": {codeCommandOK},
	"SYST": {codeSystemType},
	"FEAT": {codeSystemStatus},
	"SIZE": {codeFileStatus},
	"MDTM": {codeFileStatus},
	"EPSV": {codeExtendedPassive},
	"PBSZ": {codeCommandOK},
	"PROT": {codeCommandOK},
}

// takenInTurn are the commands every server knows: "500 unknown command"
// to one of them means the server read it before it was ready to.
var takenInTurn = map[string]bool{"PWD": true, "CWD": true, "TYPE": true}

// fits says whether code can answer line sent in a batch: a positive reply
// of its own, or a failure (4yz, 5yz) but a 500 or 503 to a command every
// server knows.
func fits(line string, code int) bool {
	verb := verbOf(line)
	switch code / 100 {
	case 4, 5:
		return !takenInTurn[verb] || (code != codeUnknownCommand && code != codeBadSequence)
	case 2:
		for _, ok := range batchAnswers[verb] {
			if code == ok {
				return true
			}
		}
	}
	return false
}

// isTimeout says whether err is a read deadline passing.
func isTimeout(err error) bool {
	var te interface{ Timeout() bool }
	return errors.As(err, &te) && te.Timeout()
}
