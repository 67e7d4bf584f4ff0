public enum ConverterPlaceholder {}
