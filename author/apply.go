package author

import (
	"context"

	"github.com/fbcat/opm/catalogrepo/stage"
)

// StagingDir is the directory, relative to the repository root, under
// which Plan.Apply writes new texts before moving them into place (see
// stage.Dir): one directory per run, removed when the run ends or, if the
// run was killed, by the next Repo.Recover.
const StagingDir = stage.Dir

// ErrNotWritten is returned by ApplyContext when its context ends before
// the first file is written: the repository is as it was.
var ErrNotWritten = stage.ErrNotWritten

// Apply writes every change, or none; see ApplyContext.
func (p *Plan) Apply() error { return p.ApplyContext(context.Background()) }

// ApplyContext writes every change, or none, even if the process is
// killed midway, with stage.Write: the new texts are staged under
// StagingDir, a journal commits them and they are renamed into place; a
// run killed after committing is finished by the next Repo.Recover. A
// file that changed on disk since the plan read it stops everything
// before anything is written (every change is checked, and the errors
// joined in the plan's order). If ctx ends before the commit, nothing is
// written and the error wraps ErrNotWritten. A rename that fails puts
// back the files already replaced; a run killed while doing so is undone
// by the next Repo.Recover.
func (p *Plan) ApplyContext(ctx context.Context) error {
	return stage.Write(ctx, p.Root, p.Files())
}

// Files are the plan's changes as stage.Write writes them.
func (p *Plan) Files() []stage.File {
	files := make([]stage.File, len(p.Changes))
	for i, c := range p.Changes {
		files[i] = stage.File{Path: c.Path, Old: c.old, Text: c.new}
	}
	return files
}

// Recover finishes, undoes or discards what runs of Plan.Apply that were
// killed left in StagingDir, and removes the temporary files older opm
// releases left beside catalogs and templates (see stage.Recover). Open
// refuses a repository such a run left half-written until Recover has
// run.
func (r *Repo) Recover() (stage.Recovery, error) { return stage.Recover(r.Root) }
