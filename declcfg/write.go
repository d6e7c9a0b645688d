package declcfg

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// CheckPackageDirName checks that a package name can be a directory name.
func CheckPackageDirName(name string) error {
	if name == "" || name == "." || name == ".." || strings.ContainsAny(name, `/\`) || strings.ContainsRune(name, 0) {
		return fmt.Errorf("invalid package name %q: must be a single local path element", name)
	}
	return nil
}

// SplitByPackage returns one catalog per package (keyed by package name)
// and the other blobs that belong to no package.
func SplitByPackage(cfg *DeclarativeConfig) (map[string]*DeclarativeConfig, *DeclarativeConfig) {
	pkgs := map[string]*DeclarativeConfig{}
	root := &DeclarativeConfig{}
	get := func(name string) *DeclarativeConfig {
		c := pkgs[name]
		if c == nil {
			c = &DeclarativeConfig{}
			pkgs[name] = c
		}
		return c
	}
	for _, p := range cfg.Packages {
		if p.Name != "" {
			c := get(p.Name)
			c.Packages = append(c.Packages, p)
		}
	}
	for _, ch := range cfg.Channels {
		if ch.Package != "" {
			c := get(ch.Package)
			c.Channels = append(c.Channels, ch)
		}
	}
	for _, b := range cfg.Bundles {
		if b.Package != "" {
			c := get(b.Package)
			c.Bundles = append(c.Bundles, b)
		}
	}
	for _, d := range cfg.Deprecations {
		if d.Package != "" {
			c := get(d.Package)
			c.Deprecations = append(c.Deprecations, d)
		}
	}
	for _, m := range cfg.Others {
		if m.Package == "" {
			root.Others = append(root.Others, m)
			continue
		}
		c := get(m.Package)
		c.Others = append(c.Others, m)
	}
	return pkgs, root
}

// WriteDir writes cfg as a directory tree: <dir>/<package>/catalog.<ext>
// for every package and <dir>/catalog.<ext> for blobs of no package. dir
// must not exist or be empty. Everything is written to a temporary
// directory beside dir first, so that a failure leaves nothing behind.
func WriteDir(cfg *DeclarativeConfig, dir string, f Format) (err error) {
	if entries, err := os.ReadDir(dir); err == nil && len(entries) > 0 {
		return fmt.Errorf("output directory %q must be empty", dir)
	} else if err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	pkgs, root := SplitByPackage(cfg)
	for name := range pkgs {
		if err := CheckPackageDirName(name); err != nil {
			return err
		}
	}
	tmp, err := makeTempDir(dir)
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			os.RemoveAll(tmp)
		}
	}()
	write := func(c *DeclarativeConfig, path string) error {
		file, err := os.Create(path)
		if err != nil {
			return err
		}
		if err := Write(c, file, f); err != nil {
			file.Close()
			return err
		}
		return file.Close()
	}
	for name, c := range pkgs {
		if err := os.Mkdir(filepath.Join(tmp, name), 0o777); err != nil {
			return err
		}
		if err := write(c, filepath.Join(tmp, name, "catalog"+f.Ext())); err != nil {
			return err
		}
	}
	if len(root.Others) > 0 {
		if err := write(root, filepath.Join(tmp, "catalog"+f.Ext())); err != nil {
			return err
		}
	}
	if err := os.Rename(tmp, dir); err == nil {
		return nil
	}
	// dir exists and is empty: move the contents over.
	entries, err := os.ReadDir(tmp)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if err := os.Rename(filepath.Join(tmp, e.Name()), filepath.Join(dir, e.Name())); err != nil {
			return err
		}
	}
	return os.Remove(tmp)
}

// makeTempDir makes a hidden directory beside dir, with the permissions a
// plain os.Mkdir would give dir.
func makeTempDir(dir string) (string, error) {
	parent, base := filepath.Split(filepath.Clean(dir))
	for {
		var r [6]byte
		_, _ = rand.Read(r[:])
		tmp := filepath.Join(parent, "."+base+".tmp-"+hex.EncodeToString(r[:]))
		err := os.Mkdir(tmp, 0o777)
		if !errors.Is(err, os.ErrExist) {
			return tmp, err
		}
	}
}
