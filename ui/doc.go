// Package ui is dembug's interactive terminal debugger: one Bubble Tea root
// model (Model) that owns the selection (a session.Ref: command, message,
// update, field) and composes the pure rendering functions of package
// views. The data it shows comes from package session: the index pass, the
// live decoder, the matcher and the what-if decodes. Decoding and file work
// run only inside tea.Cmds, tagged with a generation so stale results are
// dropped.
//
// Files by area: model.go (the root model and message routing), modal.go
// (the ordered modals: prompt, picker, anomaly list, help), input.go and
// keys.go (keys), selection.go and searchcount.go (timeline rows,
// navigation, search and filter), layout.go and view.go (the panes and the
// status line), rows.go (pane rows from decoded data), explain.go and
// header.go (the inspector's account of a read and of an update's header),
// anomaly.go, anomlist.go, locate.go, whatif.go, pickalign.go and infer.go
// (diagnostics), compare.go (another parser's trace beside ours),
// background.go (work off the loop). AGENTS.md holds the rules.
package ui
