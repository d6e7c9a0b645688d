//go:build !unix

package main

import "errors"

func makeFIFO(string) error { return errors.ErrUnsupported }
