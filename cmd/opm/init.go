package main

import "github.com/spf13/cobra"

func newInitCmd() *cobra.Command { return &cobra.Command{Use: "init"} }
