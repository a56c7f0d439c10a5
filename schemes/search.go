package schemes

// Searcher is implemented by the Locators of schemes whose searches take
// words a person types (a gopher type 7 item, a WAIS database): the
// Locator of an EntrySearch entry. WithSearch returns the URL that
// searches it for words, written as the scheme writes searches (gopher:
// the selector, a tab and the words; WAIS: the database and "?words"),
// so that a caller with a search box (the gateway's form) needs no
// scheme's syntax. It fails for a URL that takes no words (a gopher item
// other than a search), so a caller can ask whether one does.
type Searcher interface {
	WithSearch(words string) (Locator, error)
}

// Composer is implemented by the Locators of schemes that send a message
// (mailto): WithMessage returns the URL that sends subject and body to
// the same recipients, the URL's own subject and body replaced, so that a
// caller with a form (the gateway's) needs no scheme's syntax. A body is
// always set, even empty: the message is the one the form gave. Draft
// is the message the URL itself describes, for the form to start from.
type Composer interface {
	WithMessage(subject, body string) (Locator, error)
	Draft() Draft
}

// Draft is the message a sending URL describes before anyone edits it:
// its recipients and the subject and body it gives (mailto: the
// addresses and its to, cc, bcc, subject and body header fields, RFC
// 6068), decoded. Empty fields are ones the URL does not give.
type Draft struct {
	To, Cc, Bcc   []string
	Subject, Body string
}
