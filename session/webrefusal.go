package session

import (
	"errors"

	"aeroplane/ui"
	"aeroplane/ui/i18n"
	"aeroplane/web/client"
)

// webRefusal is a browser's refused lobby command as its page shows it:
// the refusal in the page's language (the terminal's catalogue, so the
// page says every refusal in the seven languages the terminal does) and
// its kind. A command the page sent malformed is a kind of its own.
func (s *NetSession) webRefusal(w *webSeat, err error) client.Table {
	if errors.Is(err, client.ErrBadMessage) {
		err = ui.Wrap(err, "err.webcmd")
	}
	s.mu.Lock()
	lang := w.lang
	s.mu.Unlock()
	m := ui.ErrorMsg(err)
	return client.Table{Error: m.In(i18n.New(lang)), ErrorKey: m.Key}
}

// setWebLang keeps the language a browser's page names, if the catalogue
// has it (anything else would be an unbounded string kept per seat).
func (s *NetSession) setWebLang(w *webSeat, lang string) {
	if lang == "" || i18n.Messages(lang) == nil {
		return
	}
	s.mu.Lock()
	w.lang = lang
	s.mu.Unlock()
}
