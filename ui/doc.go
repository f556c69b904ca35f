// Package ui is dembug's interactive terminal debugger: one Bubble Tea root
// model (Model) that owns the selection (a session.Ref: command, message,
// update, field) and composes the pure rendering functions of package
// views. The data it shows comes from the open session.File: the index
// pass, the live decoder, the matcher, the what-if decodes, the inference
// and the first suspect (the one dembug check names); a change of aliases
// is File.WithAliases, shown by reopen (reopen.go). Decoding and file work
// run only inside tea.Cmds, stamped by the one generation rule (jobs.go) so
// stale results are dropped; what the panes show is derived after each
// Update (derive.go), and View only reads it.
//
// Files by area: run.go (starting the program), model.go (the root model and
// message routing), reopen.go (the file under other aliases), modal.go (the
// ordered modals: prompt, picker, anomaly list, help, cut report), input.go and keys.go
// (keys), selection.go, navigate.go, jumplist.go and searchcount.go
// (timeline rows, navigation, the jump list, search and filter), layout.go,
// view.go and status.go (the panes and the status line), rows.go (pane rows
// from decoded data), explain.go, header.go, opstream.go, ubitvar.go and
// summaryx.go (the inspector's account of a read, an update's header, its op
// stream, a ubitvar, a wire field), strwalk.go (a string table's bit walk),
// anomaly.go, anomcount.go and anomlist.go (anomalies), locate.go (the first
// suspect), infer.go and values.go (what unknown names behave as), novel.go
// (what dembug does not know of the format), whatif.go, pickalign.go and
// promote.go (what-ifs and their promotion to --as), compare.go (another
// parser's trace beside ours), cut.go (a tick window marked on the
// timeline and written as a replay of its own), background.go, jobs.go and gcroom.go (work
// off the loop, its one generation rule), derive.go (what the panes show,
// derived after each Update), memo.go (the keys of the panes' cached rows:
// a place, session.Ref, and the data they depend on). AGENTS.md holds the
// rules.
package ui
