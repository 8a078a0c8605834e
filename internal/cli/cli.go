package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"
)

// env is what a command may touch: its arguments and standard streams.
type env struct {
	args   []string
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer
	// flags is the command's flag set (newFlags), for its -h; help, if a
	// command sets it, prints that command's own help instead.
	flags *flag.FlagSet
	help  func(w io.Writer)
}

// command is one subcommand of aeroplane.
type command struct {
	name    string
	usage   string // the argument synopsis shown by help
	summary string
	example string // one command line that works, shown by -h
	run     func(e *env) error
}

// commands is the table that both dispatch and help read, so help never lies.
// Each command lives in its own file.
var commands []command

func register(c command) { commands = append(commands, c) }

// errUsage marks an error in the arguments: the message is printed with the
// command's usage and the exit status is 2.
var errUsage = errors.New("usage")

func usageError(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{errUsage}, args...)...)
}

// Main runs aeroplane with the given arguments and returns the exit status.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	name := commandName(args)
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		args = args[1:] // it named the command
	}
	if name == "help" {
		printHelp(stdout)
		return 0
	}
	for _, c := range commands {
		if c.name != name {
			continue
		}
		e := &env{args: args, stdin: stdin, stdout: stdout, stderr: stderr}
		err := c.run(e)
		switch {
		case err == nil:
			return 0
		case errors.Is(err, flag.ErrHelp):
			printCommandHelp(stdout, c, e)
			return 0
		case errors.Is(err, errUsage):
			// The error first and alone, with the synopsis: the whole help
			// would scroll it away.
			fmt.Fprintf(stderr, "aeroplane %s: %v\nusage: aeroplane %s %s\n(`aeroplane %s -h` explains every flag)\n",
				c.name, strings.TrimPrefix(err.Error(), "usage: "), c.name, c.usage, c.name)
			return 2
		default:
			fmt.Fprintf(stderr, "aeroplane %s: %v\n", c.name, err)
			return 1
		}
	}
	fmt.Fprintf(stderr, "aeroplane: unknown command %q; `aeroplane help` lists the commands\n", name)
	return 2
}

// commandName picks the command: the first argument when it is not a flag;
// "headless" when the flags ask for a headless peer (--headless, as the
// product card spells it); "help" for a bare -h or --help; otherwise "play".
func commandName(args []string) string {
	if len(args) == 0 {
		return "play"
	}
	if !strings.HasPrefix(args[0], "-") {
		return args[0]
	}
	if len(args) == 1 && (args[0] == "-h" || args[0] == "--help" || args[0] == "-help") {
		return "help"
	}
	for _, a := range args {
		if a == "--" {
			break
		}
		if a == "--headless" || a == "-headless" || strings.HasPrefix(a, "--headless=") || strings.HasPrefix(a, "-headless=") {
			return "headless"
		}
	}
	return "play"
}

func printHelp(w io.Writer) {
	fmt.Fprintln(w, "aeroplane: Aeroplane Chess (飞行棋) peer to peer on your local network.")
	fmt.Fprintln(w, "\nUsage: aeroplane [COMMAND] [FLAGS] [ARGS]   (no command: play)")
	fmt.Fprintln(w, "\nCommands:")
	for _, c := range commands {
		fmt.Fprintf(w, "  %-8s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(w, "\n`aeroplane COMMAND -h` shows a command's flags.")
}

// printCommandHelp is a command's -h: synopsis, what it does, an example
// that works, then the flags.
func printCommandHelp(w io.Writer, c command, e *env) {
	if e.help != nil {
		e.help(w)
		return
	}
	fmt.Fprintf(w, "Usage: aeroplane %s %s\n\n%s.\n", c.name, c.usage, capitalise(c.summary))
	if c.example != "" {
		fmt.Fprintf(w, "\nExample:\n  aeroplane %s %s\n", c.name, c.example)
	}
	if e.flags != nil {
		n := 0
		e.flags.VisitAll(func(*flag.Flag) { n++ })
		if n > 0 {
			fmt.Fprintln(w, "\nFlags:")
			e.flags.SetOutput(w)
			e.flags.PrintDefaults()
		}
	}
}

func capitalise(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// newFlags makes a flag set for a command that reports errors as usage
// errors instead of exiting, and prints nothing itself: Main prints the
// error, or the command's help for -h.
func newFlags(e *env, name string) *flag.FlagSet {
	fs := flag.NewFlagSet("aeroplane "+name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	e.flags = fs
	return fs
}

// parseFlags parses flags placed anywhere among the arguments, before,
// between or after the positional ones (Go's flag package stops at the
// first positional one), and returns the positional ones in order. An
// argument holding a space is always positional: a position of the rule
// book's notation (docs/RULES.md, "Notation") starts with "-" when Red is
// not in play, and always holds spaces, which no flag does. After "--"
// everything is positional.
func parseFlags(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos, flags []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			pos = append(pos, args[i+1:]...)
			break
		}
		if len(a) < 2 || a[0] != '-' || strings.Contains(a, " ") {
			pos = append(pos, a)
			continue
		}
		flags = append(flags, a)
		name, _, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if f := fs.Lookup(name); f != nil && !hasValue && !isBoolFlag(f) && i+1 < len(args) {
			i++
			flags = append(flags, args[i]) // its value, whatever it looks like
		}
	}
	if err := fs.Parse(flags); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil, err
		}
		return nil, usageError("%v", err)
	}
	return pos, nil
}

func isBoolFlag(f *flag.Flag) bool {
	b, ok := f.Value.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}

// pauseFlag is a flag holding a pause (a time.Duration of 0 or more) whose
// error says how to write one, where flag.Duration says "parse error".
type pauseFlag struct{ d *time.Duration }

func (p pauseFlag) String() string {
	if p.d == nil {
		return ""
	}
	return p.d.String()
}

func (p pauseFlag) Set(s string) error {
	d, err := time.ParseDuration(s)
	if err != nil || d < 0 {
		return fmt.Errorf("%q is not a pause: write it like 700ms, 1.5s or 0", s)
	}
	*p.d = d
	return nil
}
