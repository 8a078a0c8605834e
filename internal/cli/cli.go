package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
)

// env is what a command may touch: its arguments and standard streams.
type env struct {
	args   []string
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer
}

// command is one subcommand of aeroplane.
type command struct {
	name    string
	usage   string // the argument synopsis shown by help
	summary string
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
		err := c.run(&env{args: args, stdin: stdin, stdout: stdout, stderr: stderr})
		switch {
		case err == nil:
			return 0
		case errors.Is(err, flag.ErrHelp):
			return 0
		case errors.Is(err, errUsage):
			fmt.Fprintf(stderr, "aeroplane %s: %v\nusage: aeroplane %s %s\n", c.name, strings.TrimPrefix(err.Error(), "usage: "), c.name, c.usage)
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

// newFlags makes a flag set for a command that reports errors as usage errors
// instead of exiting.
func newFlags(e *env, name string) *flag.FlagSet {
	fs := flag.NewFlagSet("aeroplane "+name, flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	return fs
}

// parseFlags parses flags placed anywhere among the arguments (Go's flag
// package stops at the first positional one) and returns the positional ones.
func parseFlags(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		// A position of rules.md section 9 starts with "-" when Red is not in
		// play; it always holds spaces, which no flag does.
		for len(args) > 0 && strings.Contains(args[0], " ") {
			pos = append(pos, args[0])
			args = args[1:]
		}
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, err
			}
			return nil, usageError("%v", err)
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}
