package driver

// Rows is what both indexes' query results offer: database/sql's and
// pgx's.
type Rows interface {
	Next() bool
	Scan(dest ...any) error
	Err() error
}

// ScanSizes calls each with the name and size of every row of a query
// that selects those two: Index.Sizes on either index.
func ScanSizes(rows Rows, each func(name string, size int64)) error {
	var name string
	var size int64
	for rows.Next() {
		if err := rows.Scan(&name, &size); err != nil {
			return err
		}
		each(name, size)
	}
	return rows.Err()
}
