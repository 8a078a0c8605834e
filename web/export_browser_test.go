//go:build browser

package web

// The browser helpers, for the browser tests of package web_test (which
// may import session, itself a user of web).
var (
	BuiltClient = builtClient
	NewBrowser  = newBrowser
	TapUntilEnd = tapUntilEnd
	PageLog     = pageLog
)

// GoCmd is the go command that builds the client (GOROOT's own).
var GoCmd = goCmd
