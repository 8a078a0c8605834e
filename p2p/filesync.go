package p2p

import "os"

// WriteFileSync writes a small file beside a game log (the dice secret,
// the current game's name) and fsyncs it before it returns: the log may
// name a game whose secret a machine crash must not take.
func WriteFileSync(path string, data []byte, mode os.FileMode) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, mode)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
