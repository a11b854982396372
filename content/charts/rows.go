package charts

import (
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

// RowsFromCSV reads rows from CSV (comma ',') or TSV ('\t') text whose
// first record names the fields, stopping past MaxPoints rows.
func RowsFromCSV(r io.Reader, comma rune) ([]map[string]any, error) {
	cr := csv.NewReader(r)
	cr.Comma, cr.FieldsPerRecord, cr.ReuseRecord = comma, -1, true
	head, err := cr.Read()
	if err != nil {
		return nil, fmt.Errorf("the file has no header row naming its fields: %v", err)
	}
	fields := make([]string, len(head))
	for i, h := range head {
		fields[i] = strings.TrimSpace(strings.TrimPrefix(h, "\ufeff"))
	}
	var rows []map[string]any
	for {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			return rows, nil
		}
		if err != nil {
			return nil, fmt.Errorf("the file is not valid CSV: %v", err)
		}
		if len(rows) == MaxPoints {
			return nil, fmt.Errorf("the file has more than %d rows; a chart draws at most %d", MaxPoints, MaxPoints)
		}
		row := make(map[string]any, len(fields))
		for i, f := range fields {
			if i < len(rec) {
				row[f] = rec[i]
			}
		}
		rows = append(rows, row)
	}
}

// RowsFromJSON reads rows from a JSON array of objects.
func RowsFromJSON(data []byte) ([]map[string]any, error) {
	var rows []map[string]any
	if err := json.Unmarshal(data, &rows); err != nil {
		return nil, fmt.Errorf("the file is not a JSON array of objects: %v", err)
	}
	if len(rows) > MaxPoints {
		return nil, fmt.Errorf("the file has %d rows; a chart draws at most %d", len(rows), MaxPoints)
	}
	return rows, nil
}

// RowsFromCells turns a sheet's cells, the first row naming the fields,
// into rows.
func RowsFromCells(cells [][]string) ([]map[string]any, error) {
	if len(cells) == 0 {
		return nil, fmt.Errorf("the sheet is empty: its first row should name the fields")
	}
	if len(cells)-1 > MaxPoints {
		return nil, fmt.Errorf("the sheet has %d rows; a chart draws at most %d", len(cells)-1, MaxPoints)
	}
	rows := make([]map[string]any, 0, len(cells)-1)
	for _, rec := range cells[1:] {
		row := make(map[string]any, len(cells[0]))
		for i, f := range cells[0] {
			if i < len(rec) {
				row[strings.TrimSpace(f)] = rec[i]
			}
		}
		rows = append(rows, row)
	}
	return rows, nil
}
