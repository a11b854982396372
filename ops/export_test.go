package ops

// SetZipBounds lowers PlanZip's bounds for a test, and puts them back
// when the returned function is called.
func SetZipBounds(entries int, bytes int64) func() {
	old := zipBounds
	zipBounds.entries, zipBounds.bytes = entries, bytes
	return func() { zipBounds = old }
}
