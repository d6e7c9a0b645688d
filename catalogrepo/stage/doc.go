// Package stage writes a set of files into a repository all or none,
// even if the process is killed midway (SIGKILL by a CI timeout or the
// OOM killer), and recovers what a killed run left.
//
// Write is given the repository root and the files: each one's
// root-relative path, the Digest of the text it replaces (or "" for a
// new file) and its new Text, which may come in pieces shared between
// files. It stages every new text in a directory of its own under Dir,
// writes a journal there (the run is then committed) and renames the
// texts into place; a rename that fails marks the journal aborting and
// puts back, from the copies kept beside the staged texts, what the run
// had replaced. A run that has ended renames its directory to say how
// ("done-", "undone-") before removing it, so that a process killed at
// any step leaves a record of what it did. Recover, at the next run,
// finishes a committed run, undoes an aborting one, discards one that
// never committed and removes one that had ended, and says which; Check
// tells a reader that a run left the repository half-written.
//
// A staging directory holds, besides the journal and the lock its run
// holds while alive, the staged texts (named by the file's index) and the
// kept old ones ("<index>.old", a hard link to the file replaced when the
// file system allows).
package stage
