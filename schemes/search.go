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

// ArticleLinker is implemented by the Locators of schemes whose documents
// name other resources by identifiers rather than URLs: a news article's
// Message-ID, References, In-Reply-To and Supersedes fields name articles
// by message-id, its Newsgroups and Followup-To fields name groups. It
// makes the URLs that retrieve them from where this Locator's resource
// came from (the same server, port and credentials when the URL names a
// server), so that a caller showing the document (the gateway's article
// page) links each without knowing the scheme's syntax.
//
// MessageLocator takes a message-id as a header writes it, with or
// without its enclosing "<" ">"; the Locator it returns names that
// article, and its Fields give the id back without them. GroupLocator
// takes a newsgroup name; the Locator lists that group. Each fails with a
// KindUsage *Error for text that is not such an identifier (whitespace,
// control characters, no "@" in a message-id, a malformed group name),
// and with KindUnsupported where the scheme cannot name it from this
// URL; the caller then shows the identifier as text.
type ArticleLinker interface {
	MessageLocator(id string) (Locator, error)
	GroupLocator(name string) (Locator, error)
}
