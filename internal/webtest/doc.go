// Package webtest is a test's browser for the web client's game socket:
// client.Socket over a real WebSocket (gorilla's client) to the page a
// program serves, sending the page's own origin as a browser does.
//
// It is test support and must never be imported by a product package
// (testkit's TestNoProductImportsTestkit checks); it decides nothing of
// the game and checks nothing a browser would not.
package webtest
