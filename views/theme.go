package views

import (
	"image/color"

	"charm.land/lipgloss/v2"
)

// Theme is the one set of semantic styles shared by every view. Views ask for
// a meaning ("the selected value", "a warning"), never for a colour, so a
// theme can be swapped without touching rendering code.
//
// When NoColor is set every style is the zero style and views must carry the
// same information with plain-text markers instead (brackets around the
// selection, carets under selected bits, ...). This is what golden files and
// NO_COLOR terminals see.
type Theme struct {
	// NoColor reports that the styles carry no colour or attributes and
	// views must fall back to textual markers.
	NoColor bool

	Text          lipgloss.Style // ordinary text
	Title         lipgloss.Style // pane and section titles
	Dim           lipgloss.Style // de-emphasised text: separators, padding, bytes outside any span
	Border        lipgloss.Style // pane border (unfocused)
	BorderFocused lipgloss.Style // pane border of the pane with keyboard focus
	StatusBar     lipgloss.Style // bottom status line
	Key           lipgloss.Style // key names in help text

	Error   lipgloss.Style // decode failures, overflows
	Warning lipgloss.Style // suspicious but decodable data
	Info    lipgloss.Style // neutral notices

	Offset         lipgloss.Style // bit/byte offsets in gutters
	OffsetEmphasis lipgloss.Style // offset of a row that holds the selection

	// Decoded-stream roles, used for hex bytes, bits and markers.
	SelectedValue lipgloss.Style // value bits of the selected field (strong)
	SelectedPath  lipgloss.Style // field-path bits of the selected field
	NeighbourA    lipgloss.Style // other fields alternate A/B so boundaries show
	NeighbourB    lipgloss.Style
	Header        lipgloss.Style // non-field spans: message/entity headers
}

// DefaultTheme is the colour theme for dark terminal backgrounds.
func DefaultTheme() Theme { return ThemeFor(true) }

// ThemeFor builds the colour theme for a dark (true) or light background, as
// reported by lipgloss.HasDarkBackground or Bubble Tea's BackgroundColorMsg.
func ThemeFor(darkBackground bool) Theme {
	ld := lipgloss.LightDark(darkBackground)
	c := func(light, dark string) color.Color {
		return ld(lipgloss.Color(light), lipgloss.Color(dark))
	}
	var (
		text    = c("#24283b", "#c0caf5")
		dim     = c("#9699a3", "#565f89")
		accent  = c("#2e7de9", "#7aa2f7")
		strongF = c("#ffffff", "#1a1b26")
	)
	fg := func(col color.Color) lipgloss.Style { return lipgloss.NewStyle().Foreground(col) }
	return Theme{
		Text:          fg(text),
		Title:         fg(accent).Bold(true),
		Dim:           fg(dim),
		Border:        lipgloss.NewStyle().Border(lipgloss.RoundedBorder()).BorderForeground(dim),
		BorderFocused: lipgloss.NewStyle().Border(lipgloss.RoundedBorder()).BorderForeground(accent),
		StatusBar:     fg(text).Background(c("#d5d6db", "#24283b")),
		Key:           fg(accent).Bold(true),

		Error:   fg(c("#c64343", "#f7768e")).Bold(true),
		Warning: fg(c("#8c6c3e", "#e0af68")),
		Info:    fg(c("#007197", "#7dcfff")),

		Offset:         fg(dim),
		OffsetEmphasis: fg(c("#b15c00", "#ff9e64")).Bold(true),

		SelectedValue: lipgloss.NewStyle().Foreground(strongF).Background(c("#b15c00", "#ff9e64")).Bold(true),
		SelectedPath:  lipgloss.NewStyle().Foreground(strongF).Background(c("#007197", "#7dcfff")),
		NeighbourA:    fg(c("#3760bf", "#8fa4e0")),
		NeighbourB:    fg(c("#587539", "#a3c585")),
		Header:        fg(c("#9854f1", "#bb9af7")).Italic(true),
	}
}

// NoColorTheme has no colours or attributes at all; views switch to textual
// markers. Borders keep their shape (they are layout, not colour); focus is
// shown by a thick border instead of a colour.
func NoColorTheme() Theme {
	plain := lipgloss.NewStyle()
	return Theme{
		NoColor:        true,
		Text:           plain,
		Title:          plain,
		Dim:            plain,
		Border:         plain.Border(lipgloss.NormalBorder()),
		BorderFocused:  plain.Border(lipgloss.ThickBorder()),
		StatusBar:      plain,
		Key:            plain,
		Error:          plain,
		Warning:        plain,
		Info:           plain,
		Offset:         plain,
		OffsetEmphasis: plain,
		SelectedValue:  plain,
		SelectedPath:   plain,
		NeighbourA:     plain,
		NeighbourB:     plain,
		Header:         plain,
	}
}

// paint renders s in st unless the theme is colourless.
func (t Theme) paint(st lipgloss.Style, s string) string {
	if t.NoColor || s == "" {
		return s
	}
	return st.Render(s)
}
