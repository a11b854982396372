package pdfs

import (
	"context"

	"convfiles/content"
)

// ExtractText returns the text of the pages asked for (all when pages is
// empty), page by page: content.ReadPDFText with this package's page limit.
func ExtractText(ctx context.Context, data []byte, pages []int) (content.PDFText, error) {
	return content.ReadPDFText(ctx, data, pages, MaxPages)
}
