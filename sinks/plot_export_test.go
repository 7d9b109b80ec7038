package sinks

// Exported for the external tests: what the plot draws, without pixels.
type (
	PlotLayout = plotLayout
	Span       = span
)

var LayoutOf = layoutOf
