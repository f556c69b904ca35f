package cli

import "github.com/spf13/cobra"

func entitiesCmd() *cobra.Command { return &cobra.Command{Use: "entities FILE"} }
func traceCmd() *cobra.Command    { return &cobra.Command{Use: "trace FILE"} }
func statsCmd() *cobra.Command    { return &cobra.Command{Use: "stats FILE"} }
func schemaCmd() *cobra.Command   { return &cobra.Command{Use: "schema FILE"} }
