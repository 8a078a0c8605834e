// Package i18n holds the interface's message catalogs: English, Greek,
// Portuguese, Italian, Hindi, Russian and Chinese, one file each. Every
// text the interface shows goes through a Catalog, so a new language is
// one new file. It must never hold game logic or touch the terminal.
package i18n
