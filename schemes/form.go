package schemes

// QuestionKind says how a question of a form is answered, and so what a
// caller's form shows for it. The set is closed: a scheme maps its own
// kinds onto these (Gopher+'s Ask, AskP, AskL, AskF, Choose, ChooseF,
// Select and Note).
type QuestionKind string

// The kinds of question.
const (
	QuestionText     QuestionKind = "text"     // one line; Default is the answer suggested
	QuestionPassword QuestionKind = "password" // one line that is a secret: never shown, logged or traced
	QuestionLines    QuestionKind = "lines"    // several lines, "\n" between them; Default suggested
	QuestionFile     QuestionKind = "file"     // the text of a file the server asks for, "\n" between its lines
	QuestionChoice   QuestionKind = "choice"   // one of Choices; Default is the one suggested
	QuestionCheck    QuestionKind = "check"    // yes or no, answered "1" or "0"; Default is the one suggested
	QuestionNote     QuestionKind = "note"     // text for the person to read; it takes no answer (its value is ignored)
)

// Question is one question of a form that a server asks before it
// answers (a Gopher+ item's +ASK block). Prompt and Choices are the
// server's text: show them as text, never as markup.
type Question struct {
	Kind    QuestionKind
	Prompt  string
	Default string
	Choices []string // of a QuestionChoice
}

// Form is the questions of a form, in the server's order, as an Error
// carries them.
type Form struct {
	Questions []Question
}

// Answerer is implemented by the Locators of schemes whose URLs can name
// a form: questions the server asks before it answers (a gopher URL
// whose Gopher+ string is "?", a +ASK item). The answers travel in the
// Locator, not in its URL text: a scheme whose submissions have no URL
// syntax a person would write (Gopher+'s is its whole data block) keeps
// them in a field, and String stays the form's URL. So a caller with a
// form of its own (the gateway's) needs no scheme's syntax:
//
//   - AskOnly returns the URL whose retrieval only asks: it sends no
//     answers, whatever answers the handler was configured with or a
//     terminal could give, and fails with a KindUsage *Error whose
//     Form holds the questions. A caller showing the form (a GET) uses it
//     and causes no submission.
//   - WithAnswers returns the URL that submits values, one for each of
//     those questions in their order (a QuestionNote's value ignored),
//     exactly as given. Its retrieval fails with KindUsage when the
//     form no longer has that many questions.
//
// Both fail, KindUsage, for a URL that names no form, so a caller can ask
// whether one does.
type Answerer interface {
	AskOnly() (Locator, error)
	WithAnswers(values []string) (Locator, error)
}
