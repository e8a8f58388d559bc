package cassette

// ReadJSON returns the JSON of key's recording in dir, whichever layout
// holds it, for the tests that edit a recording by hand.
func ReadJSON(dir, key string) ([]byte, error) {
	s, err := openStore(dir)
	if err != nil {
		return nil, err
	}
	_, data, _, err := s.read(key)
	return data, err
}
