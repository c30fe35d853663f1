// Command passbook is a self-hosted bank statement converter: one binary,
// one SQLite data file. See README.md.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Getenv, os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(exitStatusOf(err, os.Stderr))
}

// exitStatusOf is the process's exit status for what run returned, after
// printing the error's message on stderr: 0 for none, the status an
// *exitStatus carries, 1 for any other error.
func exitStatusOf(err error, stderr io.Writer) int {
	if err == nil {
		return 0
	}
	var xs *exitStatus
	if errors.As(err, &xs) {
		if xs.msg != "" {
			fmt.Fprintln(stderr, "passbook:", xs.msg)
		}
		return xs.code
	}
	fmt.Fprintln(stderr, "passbook:", err)
	return exitFailed
}
