package suites

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strings"
	"sync"
	"time"
)

// HelperName is the helper's executable: opm runs operator-sdk's suites
// in it, so that the Kubernetes libraries they link stay out of opm.
const HelperName = "opm-osdk"

// EnvHelper is the environment variable that names the helper's path.
const EnvHelper = "OPM_OSDK"

// NotFoundError is a helper that is not where Locate looks.
type NotFoundError struct {
	// Env is $OPM_OSDK when it is set: then nothing else is searched.
	Env string
	// Dir is, without it, the directory of the running executable,
	// searched before $PATH ("" when the executable is not known).
	Dir string
	// Err is why $OPM_OSDK's path, or the last place searched, is no
	// helper.
	Err error
}

func (e *NotFoundError) Error() string {
	if e.Env != "" {
		return fmt.Sprintf("$%s names %s, which is not an executable file (%v): point it at %s, which runs operator-sdk's suites for opm (%s)", EnvHelper, e.Env, e.Err, HelperName, howToInstall())
	}
	where := "on $PATH"
	if e.Dir != "" {
		where = "in " + e.Dir + " (beside opm) nor on $PATH"
	}
	return fmt.Sprintf("%s, which runs operator-sdk's suites for opm, is not installed: $%s is not set, and it is not %s (%s)",
		HelperName, EnvHelper, where, howToInstall())
}

func (e *NotFoundError) Unwrap() error { return e.Err }

// howToInstall says how to install the helper beside opm.
func howToInstall() string {
	version := "VERSION"
	if bi, ok := debug.ReadBuildInfo(); ok && strings.HasPrefix(bi.Main.Version, "v") {
		version = bi.Main.Version
	}
	return "make build writes it beside bin/opm; go install github.com/fbcat/opm/cmd/" + HelperName + "@" + version + " installs it beside an opm installed so, at the same version"
}

// Locate finds the helper: the path $OPM_OSDK names when it is set,
// else opm-osdk in the directory of the running executable (where make
// build and go install put it beside opm), else on $PATH.
func Locate() (string, error) {
	if env := os.Getenv(EnvHelper); env != "" {
		if err := executable(env); err != nil {
			return "", &NotFoundError{Env: env, Err: err}
		}
		return env, nil
	}
	nf := &NotFoundError{}
	if exe, err := os.Executable(); err == nil {
		beside := filepath.Join(filepath.Dir(exe), HelperName)
		if executable(beside) == nil {
			return beside, nil
		}
		nf.Dir = filepath.Dir(exe)
	}
	p, err := exec.LookPath(HelperName)
	if err == nil {
		return p, nil
	}
	nf.Err = err
	return "", nf
}

// executable checks that path is a regular file someone may execute.
func executable(path string) error {
	st, err := os.Stat(path)
	switch {
	case err != nil:
		return err
	case !st.Mode().IsRegular():
		return errors.New("not a regular file")
	case st.Mode().Perm()&0o111 == 0:
		return fs.ErrPermission
	}
	return nil
}

// Start starts the helper Locate finds and connects to it; ctx's end
// kills it.
func Start(ctx context.Context) (*Client, error) {
	path, err := Locate()
	if err != nil {
		return nil, err
	}
	return StartAt(ctx, path)
}

// StartAt starts the helper at path and connects to it; ctx's end kills
// it. What it writes on its standard error is kept (the end of it) for
// the error that says why it stopped.
func StartAt(ctx context.Context, path string) (*Client, error) {
	cmd := exec.CommandContext(ctx, path)
	stderr := &tail{}
	cmd.Stderr = stderr
	// Killed, it may leave its standard error open to a child: do not
	// wait for that long.
	cmd.WaitDelay = 5 * time.Second
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting %s: %w", HelperName, err)
	}
	wait := func() error {
		if err := cmd.Wait(); err != nil {
			if said := stderr.String(); said != "" {
				return fmt.Errorf("%w, saying:\n%s", err, said)
			}
			return err
		}
		return nil
	}
	return Connect(path, out, in, wait)
}

// tail keeps the end of what is written to it: the last tailSize bytes.
type tail struct {
	mu   sync.Mutex
	data []byte
}

const tailSize = 2048

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.data = append(t.data, p...)
	if len(t.data) > tailSize {
		t.data = append(t.data[:0], t.data[len(t.data)-tailSize:]...)
	}
	return len(p), nil
}

// String is what was kept, without the spaces around it.
func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return strings.TrimSpace(string(t.data))
}
